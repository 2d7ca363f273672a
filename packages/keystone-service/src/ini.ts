/** INI content: sections of keys, each key with one value or several (one line each). */
export type IniSections = Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;

const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Renders INI as oslo.config and paste read it: sections and keys sorted in byte order (so DEFAULT comes
 * first and the output is stable), `key = value` lines, one blank line between sections. Values are written
 * verbatim: the spec's validation keeps line breaks out of them, which is what keeps one value from adding
 * lines of its own.
 */
export function renderIni(sections: IniSections): string {
  return Object.keys(sections)
    .sort(byteOrder)
    .map((name) => {
      const entries = sections[name] ?? {};
      const lines = Object.keys(entries)
        .sort(byteOrder)
        .flatMap((key) => {
          const value = entries[key] ?? '';
          return (typeof value === 'string' ? [value] : value).map((v) => `${key} = ${v}`);
        });
      return [`[${name}]`, ...lines].join('\n');
    })
    .join('\n\n')
    .concat(Object.keys(sections).length === 0 ? '' : '\n');
}

/** `overlay` over `base`, key by key within each section (a section in both is merged, not replaced). */
export function mergeSections(base: IniSections, overlay: IniSections): IniSections {
  const merged: Record<string, Record<string, string | readonly string[]>> = {};
  for (const source of [base, overlay]) {
    for (const [section, entries] of Object.entries(source)) merged[section] = { ...(merged[section] ?? {}), ...entries };
  }
  return merged;
}
