// Test support shared by the suites of several packages (not used by the product's code).
export { startFakeModelProvider, type FakeModelProvider, type ProviderAnswer, type ProviderRequest } from "./fakeModelProvider.js";
export { startBlackHole, startTcpProxy, type TcpProxy } from "./tcpProxy.js";
