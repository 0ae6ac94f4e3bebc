// Text made safe for one line of a log or an error message: control characters (C0, DEL, C1)
// and the Unicode line and paragraph separators become `\uXXXX` escapes, so that a name taken
// from input can neither break the line nor forge the next one (docs/cli.md: a startup error
// is one stderr line).

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function oneLine(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
