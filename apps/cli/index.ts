// Public surface of @verdict/cli: the `verdict` command as a function (argv -> exit code), the
// local run the CI use case is built on, and the pieces `start` composes.
export { runCli, resolveCommand } from "./cli.js";
export { EXIT, CliError, exitCodeOf, type ExitCode } from "./errors.js";
export { bufferIo, processIo, type Io } from "./io.js";
export { localRun, renderReport, runtimeScenarioOf, modelSpecsOf, type LocalRunOptions, type LocalRunOutcome, type ReportFormat } from "./localRun.js";
export { agentFromFlag, judgeFromFlag } from "./runtimeSpecs.js";
export { platformMode, describeMode, type PlatformMode } from "./platform.js";
export { createFileApiKeyStore } from "./fileApiKeyStore.js";
export { diffCatalog, diffText, lastImport, type CatalogDiff } from "./catalogDiff.js";
export { EXAMPLE_DIR, EXAMPLE_MODELS, EXAMPLE_SET } from "./exampleRun.js";
