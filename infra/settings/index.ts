// How the apps read their settings from the environment and flags, one way for all.
export { parseWholeNumber, SettingError, TIMER_MAX_MS, wholeNumberSetting, type WholeNumberRule } from "./wholeNumber.js";
export { DEFAULT_REPLAY_TIMEOUT_MS, REPLAY_TIMEOUT_RULE } from "./replayTimeout.js";
export { scriptLoaded } from "./scriptFile.js";
export { planFromEnv } from "./planSettings.js";
export { helpAsked, refuseArguments, unknownArgumentLine } from "./arguments.js";
export { ExitError, exitFor, processExitCode, SETTING_EXIT_CODE } from "./processExit.js";
