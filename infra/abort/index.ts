// Abort signals for work that ends when any of its sources aborts, or on a timer (linkedSignal.ts).
export { linkSignals, type LinkedSignal } from "./linkedSignal.js";
