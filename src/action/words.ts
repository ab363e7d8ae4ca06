/**
 * A string split into words as a POSIX shell splits a command line, without expanding anything:
 * blanks separate words; 'single quotes' keep everything; "double quotes" keep everything but
 * `\"`, `\\`, `\$` and `` \` ``; a backslash outside quotes keeps the next character; a backslash
 * before a newline, outside single quotes, is removed with it (a line continued). For the
 * action's `args` input, which a workflow writes as it would write the flags in a `run:` step.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let index = 0;
  const add = (text: string): void => {
    word = (word ?? '') + text;
  };
  while (index < line.length) {
    const char = line[index]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      index++;
    } else if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end < 0) throw new Error(`a ' at character ${index + 1} is never closed`);
      add(line.slice(index + 1, end));
      index = end + 1;
    } else if (char === '"') {
      let end = index + 1;
      let text = '';
      while (end < line.length && line[end] !== '"') {
        if (line[end] === '\\' && line[end + 1] === '\n') {
          end += 2;
          continue;
        }
        if (line[end] === '\\' && end + 1 < line.length && '"\\$`'.includes(line[end + 1]!)) end++;
        text += line[end];
        end++;
      }
      if (end >= line.length) throw new Error(`a " at character ${index + 1} is never closed`);
      add(text);
      index = end + 1;
    } else if (char === '\\') {
      if (index + 1 >= line.length) throw new Error('a \\ at the end escapes nothing');
      // A backslash at the end of a line joins it to the next, as in a `run:` step: it is no character of a word.
      if (line[index + 1] !== '\n') add(line[index + 1]!);
      index += 2;
    } else {
      add(char);
      index++;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
