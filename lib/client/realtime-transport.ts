/**
 * Whether this tab's real-time connection goes over long-polling only: set once a WebSocket failed to open
 * (lib/client/use-socket.ts), so later page loads in the tab do not wait for it again.
 */
const POLLING_ONLY = "relay.realtime.polling";

export function pollingOnly(): boolean {
  try {
    return sessionStorage.getItem(POLLING_ONLY) === "1";
  } catch {
    return false;
  }
}

export function rememberPollingOnly(): void {
  try {
    sessionStorage.setItem(POLLING_ONLY, "1");
  } catch {
    // storage off: the next page load waits out the grace period again
  }
}
