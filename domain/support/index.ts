// Ruby/ActiveSupport semantics the reference behaviour depends on (reference-core §0).
// Shared by every capability folder; not part of the library's public surface.
export { isBlank, presence, isPlainObject, NON_BLANK_CHARACTER } from "./blank.js";
export { characterLength, truncate, truncateBytes } from "./truncate.js";
export { parameterize } from "./parameterize.js";
export { humanize } from "./humanize.js";
export { pluralize, countOf } from "./pluralize.js";
export { roundHalfAwayFromZero, rubyNumber } from "./round.js";
export { FloatSum, floatSum } from "./floatSum.js";
export { likelyMeant } from "./likelyMeant.js";
export { checkKnownOptions, checkOptionsObject, described } from "./knownOptions.js";
export { keyedRecord } from "./keyedRecord.js";
export { thrownText } from "./thrownText.js";
export { isThenable } from "./isThenable.js";
export { identifierTextProblem, characterName, visibleText } from "./identifierText.js";
export { skeletonOf, lookAlikePair, lookAlikeRule } from "./lookAlike.js";
