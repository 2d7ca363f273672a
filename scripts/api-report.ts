// The public API of every published entry point, recorded by API Extractor in api/<report>.api.md and
// counted in a table in docs/architecture.md. Reads the declarations `tsc -b` writes to each dist/.
// Usage: node --import tsx scripts/api-report.ts check|update [--root DIR]
//   check:  exit 1 naming every report (or the table) that differs from the current API
//   update: rewrite the reports and the table
import { Extractor, ExtractorConfig, CompilerState, ExtractorLogLevel, ExtractorMessageCategory, type ExtractorMessage, type IConfigFile } from '@microsoft/api-extractor';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryPoints, exportedNameCounts, type EntryPoint } from './api-entry-points.js';

export const REPORT_FOLDER = 'api';
export const REPORT_SUFFIX = '.api.md';
export const TABLE_FILE = 'docs/architecture.md';
const TABLE_START = '<!-- api-counts:start (pnpm api:update writes this table) -->';
const TABLE_END = '<!-- api-counts:end -->';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export interface ApiReportOutcome {
  readonly entryPoints: number;
  /** Reports, relative to the root, that differ from the current API, are missing, or have no entry point left. */
  readonly changed: string[];
  /** Whether the table of counts in TABLE_FILE differs from the current counts. */
  readonly tableChanged: boolean;
  /** API Extractor's errors and warnings, one line each. */
  readonly problems: string[];
}

/** One entry point's settings; `program` lists every entry point, so one TypeScript program serves them all. */
function extractorConfig(entry: EntryPoint, program: readonly string[], reportFolder: string, tempFolder: string): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: entry.packageDir,
    mainEntryPointFilePath: entry.typesFile,
    compiler: {
      overrideTsconfig: {
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', lib: ['ES2023', 'ES2024.String'], strict: true, skipLibCheck: true, types: ['node'], typeRoots: [join(repoRoot, 'node_modules', '@types')] },
        files: [...program],
      },
    },
    apiReport: { enabled: true, reportFolder, reportTempFolder: tempFolder, reportFileName: entry.reportName, includeForgottenExports: true },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    newlineKind: 'lf',
    // prepare() applies none of API Extractor's defaults, so every rule that matters is spelled out here.
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
      extractorMessageReporting: {
        default: { logLevel: ExtractorLogLevel.Warning },
        // The packages mark no release stages (@public, @beta): every exported name is public.
        'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
        'ae-undocumented': { logLevel: ExtractorLogLevel.None },
        // A type the API uses but the entry point does not export: recorded in the report, next to its declaration.
        'ae-forgotten-export': { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
      },
      // Doc comments are written for readers, not for a TSDoc parser.
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
  return ExtractorConfig.prepare({ configObject, configObjectFullPath: undefined, packageJsonFullPath: join(entry.packageDir, 'package.json') });
}

function countsTable(entries: readonly EntryPoint[]): string {
  const counts = exportedNameCounts(entries.map((entry) => entry.typesFile));
  const rows = entries.map((entry) => {
    const specifier = entry.subpath === '.' ? entry.packageName : `${entry.packageName}/${entry.subpath.slice(2)}`;
    return `| \`${specifier}\` | ${String(counts.get(entry.typesFile))} | \`${REPORT_FOLDER}/${entry.reportName}${REPORT_SUFFIX}\` |`;
  });
  return ['| Entry point | Exported names | Report |', '| --- | ---: | --- |', ...rows].join('\n');
}

/** The table file with its table replaced, or undefined when the root has no such file (a package-only tree). */
function withTable(root: string, table: string): { path: string; before: string; after: string } | undefined {
  const path = join(root, TABLE_FILE);
  if (!existsSync(path)) return undefined;
  const before = readFileSync(path, 'utf8');
  const start = before.indexOf(TABLE_START);
  const end = before.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${TABLE_FILE} has lost the markers around the table of exported names: ${TABLE_START} ... ${TABLE_END}`);
  return { path, before, after: `${before.slice(0, start + TABLE_START.length)}\n${table}\n${before.slice(end)}` };
}

/** Compares (update = false) or rewrites (update = true) every report and the table under `root`. */
export function apiReports(root: string, update: boolean): ApiReportOutcome {
  const entries = entryPoints(root);
  const typesFiles = entries.map((entry) => entry.typesFile);
  const reportFolder = join(root, REPORT_FOLDER);
  mkdirSync(reportFolder, { recursive: true });
  const tempFolder = mkdtempSync(join(tmpdir(), 'api-report-'));
  const changed: string[] = [];
  const problems: string[] = [];
  try {
    let compilerState: CompilerState | undefined;
    for (const entry of entries) {
      const config = extractorConfig(entry, typesFiles, reportFolder, tempFolder);
      compilerState ??= CompilerState.create(config);
      const messageCallback = (message: ExtractorMessage): void => {
        message.handled = true;
        if (message.category === ExtractorMessageCategory.Console) return;
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) {
          problems.push(`${entry.reportName}: ${message.formatMessageWithLocation(root)}`);
        }
      };
      const result = Extractor.invoke(config, { localBuild: update, compilerState, messageCallback });
      if (result.apiReportChanged) changed.push(join(REPORT_FOLDER, entry.reportName + REPORT_SUFFIX));
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  const expected = new Set(entries.map((entry) => entry.reportName + REPORT_SUFFIX));
  for (const stale of readdirSync(reportFolder).filter((file) => file.endsWith(REPORT_SUFFIX) && !expected.has(file))) {
    changed.push(join(REPORT_FOLDER, stale));
    if (update) rmSync(join(reportFolder, stale));
  }
  const table = withTable(root, countsTable(entries));
  const tableChanged = table !== undefined && table.before !== table.after;
  if (update && table !== undefined && tableChanged) writeFileSync(table.path, table.after);
  return { entryPoints: entries.length, changed, tableChanged, problems };
}

/** What `check` prints: which reports differ and how to update them, or that all match; and whether it passed. */
export function checkMessage(outcome: ApiReportOutcome, seconds: number): { passed: boolean; lines: string[] } {
  const { entryPoints: count, changed, tableChanged, problems } = outcome;
  if (changed.length > 0 || tableChanged) {
    return {
      passed: false,
      lines: [
        ...problems,
        'The public API differs from the committed API reports:',
        ...changed.map((report) => `  ${report}`),
        ...(tableChanged ? [`  the table of exported names in ${TABLE_FILE}`] : []),
        'If the change is meant, run `pnpm api:update` and commit the reports with the change; otherwise undo the change to the exports.',
      ],
    };
  }
  if (problems.length > 0) return { passed: false, lines: problems };
  return { passed: true, lines: [`The ${String(count)} API reports in ${REPORT_FOLDER}/ match the exports (${seconds.toFixed(0)} s)`] };
}

function main(): number {
  const [mode, flag, dir] = process.argv.slice(2);
  if ((mode !== 'check' && mode !== 'update') || (flag !== undefined && (flag !== '--root' || dir === undefined))) {
    console.error('usage: api-report.ts check|update [--root DIR]');
    return 2;
  }
  const started = Date.now();
  const outcome = apiReports(dir ?? repoRoot, mode === 'update');
  if (mode === 'update') {
    for (const problem of outcome.problems) console.error(problem);
    for (const report of outcome.changed) console.log(`updated ${report}`);
    if (outcome.tableChanged) console.log(`updated the table of exported names in ${TABLE_FILE}`);
    return outcome.problems.length > 0 ? 1 : 0;
  }
  const { passed, lines } = checkMessage(outcome, (Date.now() - started) / 1000);
  for (const line of lines) (passed ? console.log : console.error)(line);
  return passed ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
