import { createMemoryEventStore } from "@verdict/infra";
import { eventStoreContract } from "../contracts/eventStore.js";

eventStoreContract("memory", async () => createMemoryEventStore());
