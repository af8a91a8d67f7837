import { prepareTestDatabases } from "./testing";

export default async function setup(): Promise<void> {
  await prepareTestDatabases();
}
