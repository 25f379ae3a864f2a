// The EventStore port, imported from its own file rather than the @verdict/domain barrel so the
// adapters load without pulling in the whole domain (and whatever is half-built in it). Node and
// vitest resolve the workspace symlink to the same file, so `instanceof` checks agree with code
// that imports these names from "@verdict/domain".
export { WrongExpectedVersionError } from "../../domain/ports/eventStore.js";
export type {
  AppendResult,
  EventFilter,
  EventStore,
  EventToAppend,
  ExpectedVersion,
  LogPosition,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamPage,
  SubscribeAllOptions,
} from "../../domain/ports/eventStore.js";
