// JSON text in ASCII alone: each character beyond it written as JSON's own escape, `\u00e9` for
// `é` (RFC 8259, section 7), which every JSON parser reads back as the character. Such a text is
// as many bytes as characters, in UTF-8 as in Latin-1, so a server sends it without first reading
// it through to count its bytes: the server's JSON writer (searchJson) makes its answers from
// texts made this way.

/** A UTF-16 code unit beyond ASCII: a character beyond the Basic Multilingual Plane is two, escaped as its surrogate pair. */
const BEYOND_ASCII = /[\u0080-\uffff]/;
const EACH_BEYOND_ASCII = /[\u0080-\uffff]/g;

/** The JSON text with every character beyond ASCII escaped; the text itself when it has none. */
export function asciiJson(json: string): string {
  return BEYOND_ASCII.test(json) ? json.replace(EACH_BEYOND_ASCII, escapeCodeUnit) : json;
}

function escapeCodeUnit(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
