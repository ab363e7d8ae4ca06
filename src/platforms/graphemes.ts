let graphemeSegmenter: Intl.Segmenter | undefined;

/** The user-perceived characters of a text (extended grapheme clusters), as Intl.Segmenter finds them. */
export function graphemes(text: string): string[] {
  // Built on first use: building one takes 20 to 50 ms, and most runs never need it.
  graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}
