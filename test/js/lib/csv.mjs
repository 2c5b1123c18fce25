// Minimal RFC 4180 CSV parser for the corpus' *_expect.csv files.
// An unquoted empty field is NULL (null); a quoted empty field ("") is ''.

export function parseCsv(text) {
  const rows = [];
  let row = [];
  let i = 0;
  const n = text.length;
  let field = '';
  let quoted = false;
  let any = false; // current field had any character or quotes
  const endField = () => {
    row.push(!quoted && field === '' ? null : field);
    field = '';
    quoted = false;
    any = false;
  };
  while (i < n) {
    const ch = text[i];
    if (ch === '"' && !any) {
      quoted = true;
      any = true;
      i++;
      for (;;) {
        if (i >= n) throw new Error('unterminated quoted CSV field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        field += text[i++];
      }
    } else if (ch === ',') {
      endField();
      i++;
    } else if (ch === '\n' || ch === '\r') {
      endField();
      rows.push(row);
      row = [];
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      any = true;
      i++;
    }
  }
  if (any || field !== '' || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}
