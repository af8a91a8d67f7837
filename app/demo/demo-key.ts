import { demoMessengerKey } from "@/lib/demo/messenger-key";
import { getRuntime } from "@/lib/server/runtime";

/** Server-side only (the page imports it): the demo app's messenger key from this server's database. */
export function readDemoKey(): Promise<string | undefined> {
  return demoMessengerKey(getRuntime().db);
}
