// Where a JSON text stops being valid (RFC 8259), as a line and column. JSON.parse's own message
// may quote the text around the fault ('Unexpected token 'h', "{"secret": hunter2}" is not
// valid JSON'), and a fixture may hold client secrets, so a fixture error reports this position
// instead of passing that message on (docs/cli.md: a startup fixture error never prints the
// fixture). Called only after JSON.parse has refused the text.

export interface TextPosition {
  line: number;
  column: number;
}

class Fault {
  readonly offset: number;
  constructor(offset: number) {
    this.offset = offset;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The 1-based line and column of the first fault in `text`, or undefined when it is valid JSON. */
export function jsonErrorPosition(text: string): TextPosition | undefined {
  let offset: number;
  try {
    offset = faultOffset(text);
  } catch (error) {
    // Nesting deeper than this scanner's stack: no position, and still no quote of the text.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  if (offset < 0) return undefined;
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: before.length, column: (before.at(-1) as string).length + 1 };
}

/** The offset of the first fault, or -1. */
function faultOffset(text: string): number {
  let i = 0;
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const expect = (char: string) => {
    if (text[i] !== char) throw new Fault(i);
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const code = text.charCodeAt(i);
      if (Number.isNaN(code) || code < 0x20) throw new Fault(i);
      if (code === 0x22) {
        i++;
        return;
      }
      if (code === 0x5c) {
        ESCAPE.lastIndex = i;
        if (!ESCAPE.test(text)) throw new Fault(i);
        i = ESCAPE.lastIndex;
      } else {
        i++;
      }
    }
  };
  // An object's or an array's items, the opening bracket at i.
  const items = (close: string, item: () => void): void => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] !== ',') return expect(close);
      i++;
    }
  };
  const member = (): void => {
    space();
    string();
    space();
    expect(':');
    value();
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') return items('}', member);
    if (char === '[') return items(']', value);
    if (char === '"') return string();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) throw new Fault(i);
    i = NUMBER.lastIndex;
  };
  try {
    value();
    space();
    if (i < text.length) throw new Fault(i);
    return -1;
  } catch (error) {
    if (error instanceof Fault) return error.offset;
    throw error;
  }
}
