import { createMemoryEventStore } from "@verdict/infra";
import { eventStoreContract } from "../contracts/eventStore.js";

eventStoreContract("memory", async (tuning) => createMemoryEventStore(tuning));
