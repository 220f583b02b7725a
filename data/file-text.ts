// The text of a dataset's files as every reader takes it: UTF-8 with or without a byte-order mark,
// each problem an error on the line it is found, and JSON parsed with momoa, which keeps each
// node's position, so that carriers.json and a mapping file name their mistakes on their lines.

import { readFileSync, statSync } from 'node:fs';
import { parse as parseJson, type ValueNode } from '@humanwhocodes/momoa';

/**
 * A file's text, decoded as UTF-8 without its byte-order mark (Notepad and Excel write one). Text
 * that is not UTF-8 (a Windows-1252 export) is an error on the first line it spoils; the rest is
 * still read, so every other finding is listed too. Null, with an error, for a folder or UTF-16.
 */
export function readText(path: string, error: (line: number, message: string) => void): string | null {
  const stat = statSync(path);
  if (!stat.isFile()) {
    error(0, stat.isDirectory() ? 'this is a folder, not a file' : 'this is not a file');
    return null;
  }
  const bytes = readFileSync(path);
  // Excel's "Unicode Text" and Windows PowerShell's `>` write UTF-16, which starts with its
  // byte-order mark: read as UTF-8, every line would be spoiled, and the header look like no column.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    error(1, 'this file is UTF-16 text: save it as UTF-8 (in Excel: CSV UTF-8)');
    return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    error(line, 'this line is not UTF-8 text: save the file as UTF-8 (in Excel: CSV UTF-8)');
    return text;
  }
}

/**
 * A JSON file's syntax tree, read as the dataset's every file is (a byte-order mark allowed); null,
 * with an error on the line and column of the first mistake, when it cannot be read or parsed.
 */
export function readJson(path: string, error: (line: number, message: string) => void): ValueNode | null {
  const text = readText(path, error);
  if (text === null) return null;
  try {
    return parseJson(text, { mode: 'json' }).body;
  } catch (err) {
    const { line, column, message } = err as Error & { line?: number; column?: number };
    error(line ?? 1, `not valid JSON at column ${column ?? 1}: ${describeJsonError(message)}`);
    return null;
  }
}

const TOKENS: Record<string, string> = {
  String: 'text in quotes', Number: 'a number', Boolean: 'true or false', Null: 'null',
  LBrace: '{', RBrace: '}', LBracket: '[', RBracket: ']', Comma: 'a comma', Colon: 'a colon',
};

/** momoa's message ("Unexpected token String found. (3:5)") in words, with the likely mistake. */
function describeJsonError(message: string): string {
  const token = /^Unexpected token (\w+)/.exec(message)?.[1];
  if (token === 'RBrace' || token === 'RBracket') return `unexpected ${TOKENS[token]} (is there a comma too many before it?)`;
  if (token) return `unexpected ${TOKENS[token] ?? token} (is a comma missing before it?)`;
  if (message.startsWith('Unexpected end of input')) return 'the file ends before every { and [ is closed';
  const found = /^Unexpected (?:character|identifier) '(.*)'/.exec(message)?.[1];
  if (found !== undefined) return `unexpected ${JSON.stringify(found)} (names and text need double quotes)`;
  return message;
}
