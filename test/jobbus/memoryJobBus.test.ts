import { MemoryJobBus } from "@verdict/infra/jobbus";
import { jobBusContract } from "../contracts/jobBus.js";

jobBusContract("memory", async () => new MemoryJobBus(), { timeoutMs: 2_000 });
