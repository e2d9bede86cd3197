/**
 * The programmatic API of mrtr-port: what the CLI calls, for tools and scripts that want structured
 * results instead of text.
 */
export { runAnalyze, runCheck, checkFails, SYMLINK_SKIP_REASON } from './cli/run.js';
export type { RunOptions, RunResult } from './cli/run.js';
export { EXIT_CODES, UsageError } from './cli/exit-codes.js';
export { REPORTERS, OUTPUT_FORMATS, isOutputFormat } from './cli/reporters/index.js';
export type { OutputFormat } from './cli/reporters/index.js';
export type { ReportContext, Reporter } from './cli/reporters/context.js';
export type { JsonReport } from './cli/reporters/json.js';
export { scanMarkers } from './cli/markers-scan.js';
export type { MarkerEntry } from './cli/markers-scan.js';
export { discoverFiles, isSourceFile, SOURCE_EXTENSIONS, SKIPPED_DIRECTORIES } from './port/discover.js';
export type { DiscoverOptions, DiscoverResult } from './port/discover.js';
export { analyze } from './analyzer/index.js';
export type { AnalysisReport, Site, Portability, SkippedFile } from './analyzer/model.js';
export { REASONS } from './analyzer/reasons.js';
export type { ReasonId } from './analyzer/reasons.js';
export { runPort, portExitCode, PortUsageError } from './port/index.js';
export type { RunPortOptions, PortResult, PortSummary, FileOutcome } from './port/index.js';
