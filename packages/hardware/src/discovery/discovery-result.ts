export interface DiscoveryResult<T> {
  devices: T[];
  /** Why the list may be incomplete (no udev, no permission, no native binding); the UI shows it as a hint. */
  warning?: string;
}

export const DISCOVERY_TIMEOUT_MS = 5_000;

export function describeFailure(what: string, error: unknown): string {
  return `${what}: ${error instanceof Error ? error.message : String(error)}`;
}
