/** The command's text for a report, as one string: for a library caller (`formatReport`), with or without colour. */
import { Chalk } from 'chalk';
import type { Report } from '../core/report.js';
import { NO_COLOURS, fromChalk } from './colour.js';
import { formatReportLines } from './human.js';

export interface FormatReportOptions {
  /** ANSI colours, as the command shows them on a terminal. Default false. */
  color?: boolean;
  /** The command's note on where the token came from, shown after the channels; none by default. */
  tokenNote?: string;
}

/** The report as the command prints it (see formatReportLines for what the report does not hold). */
export function formatReport(report: Report, options: FormatReportOptions = {}): string {
  const colours = options.color ? fromChalk(new Chalk({ level: Math.max(1, new Chalk().level) as 1 | 2 | 3 })) : NO_COLOURS;
  return `${formatReportLines(report, colours, options.tokenNote).join('\n')}\n`;
}
