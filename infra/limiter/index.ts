// At most N tasks at once, the rest waiting in call order (the worker's replays, the API's heavy loads).
export { Limiter } from "./limiter.js";
