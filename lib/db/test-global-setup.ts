import { prepareServerBundle } from "../testing/spawn";
import { prepareTestDatabases } from "./testing";

export default async function setup(): Promise<void> {
  await Promise.all([prepareTestDatabases(), prepareServerBundle()]);
}
