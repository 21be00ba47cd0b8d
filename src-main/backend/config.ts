// Configuration from flags and environment (docs/api.md sections 2 and 14). Bad values
// are reported with the name of the setting; nothing here exits the process.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export interface BackendConfig {
  /** A demo pack to load once started (`--demo <name or pack.json>`; docs/testing-your-endpoint.md). */
  demo?: string;
  /** Service API + console listener; 0 picks a free port. */
  port: number;
  /** Receiver listener; 0 picks a free port. */
  receiverPort: number;
  /** Always loopback (docs/architecture.md, docs/api.md section 1). */
  host: '127.0.0.1';
  dataDir: string;
  /** Ensures a company admin with this key exists ("Demo Company"). */
  adminKey?: string;
  /** Seconds to wait before attempts 2..N (so attempts = length + 1). */
  retrySchedule: number[];
  deliveryTimeoutMs: number;
  /** Requests per second per API key; undefined = off. */
  rateLimit?: number;
  /** Finished deliveries kept in the history log (oldest dropped first). */
  historyCap: number;
  /** Deliveries in flight at once, and per subscription. */
  deliveryConcurrency: number;
  deliveryConcurrencyPerSubscription: number;
  /**
   * COUNTERSIGN_ALLOW_PRIVATE_TARGETS: deliveries may go to private network, link-local
   * and loopback-by-another-name addresses (off: refused at connect time, net/address-policy.ts).
   */
  allowPrivateTargets: boolean;
  /** COUNTERSIGN_DISABLE_AFTER_FAILING_SECONDS: a subscription whose every attempt failed this long is disabled (0: never). */
  disableAfterFailingSeconds: number;
  /** COUNTERSIGN_SECRET_ROTATION_OVERLAP_SECONDS: how long a rotated-out secret keeps signing beside the new one. */
  rotationOverlapSeconds: number;
  ngrokAuthtoken?: string;
  /** More names the API listener answers to besides its loopback names (the Host check, http/host-check.ts). */
  allowedHosts: string[];
  /** Deadline of one call to a remote connection (ms). */
  remoteTimeoutMs: number;
  /** Fixed console token (tests); random per run when absent. */
  consoleToken?: string;
  /** The receiver's own limits (docs/receiver.md section 1; receiver/types.ts ReceiverLimits). */
  receiver: ReceiverSettings;
}

export interface ReceiverSettings {
  /** Largest body an inbox keeps (bytes); larger is 413. */
  bodyLimit: number;
  /** Bodies being received plus captures waiting for the disk (bytes), all inboxes; past it, 503. */
  memoryBudget: number;
  /** Requests one inbox may have open at once; past it, 503. */
  maxOpenPerInbox: number;
  /** COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST=1: forwarding inboxes may send to hosts other than this machine. */
  forwardToAnyHost: boolean;
  /** Time a sender has to send a whole request (ms); headers must come within min(10 s, this). */
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function intSetting(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return n;
}

function boolSetting(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}

export function parseRetrySchedule(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_SCHEDULE];
  const parts = raw.split(',').map((s) => s.trim());
  const values = parts.map(Number);
  if (values.some((v, i) => parts[i] === '' || !Number.isFinite(v) || v < 0 || v > 7 * 86400)) {
    throw new ConfigError(`COUNTERSIGN_RETRY_SCHEDULE must be seconds between attempts, comma separated, each 0 to 604800 (got "${raw}")`);
  }
  return values;
}

// A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port.
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** COUNTERSIGN_ALLOWED_HOSTS: host names, comma separated, each with an optional `:port`. */
export function parseAllowedHosts(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const names = raw.split(',').map((s) => s.trim().toLowerCase());
  const bad = names.find((n) => !HOST_NAME.test(n));
  if (bad !== undefined)
    throw new ConfigError(`COUNTERSIGN_ALLOWED_HOSTS must be host names, comma separated, each with an optional :port (got "${bad}")`);
  return names;
}

type Env = Record<string, string | undefined>;

const MIB = 1024 * 1024;

/** COUNTERSIGN_RECEIVER_*: the receiver's limits. The budget must hold two bodies at least. */
export function receiverSettings(env: Env): ReceiverSettings {
  const bodyLimit = intSetting('COUNTERSIGN_RECEIVER_BODY_LIMIT', env.COUNTERSIGN_RECEIVER_BODY_LIMIT, MIB, 1024, 64 * MIB);
  const memoryBudget = intSetting('COUNTERSIGN_RECEIVER_MEMORY_BUDGET', env.COUNTERSIGN_RECEIVER_MEMORY_BUDGET, 64 * MIB, MIB, 4096 * MIB);
  if (memoryBudget < 2 * bodyLimit)
    throw new ConfigError(
      `COUNTERSIGN_RECEIVER_MEMORY_BUDGET (${memoryBudget}) must be at least twice COUNTERSIGN_RECEIVER_BODY_LIMIT (${bodyLimit})`,
    );
  return {
    bodyLimit,
    memoryBudget,
    forwardToAnyHost: boolSetting('COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST', env.COUNTERSIGN_RECEIVER_FORWARD_TO_ANY_HOST),
    maxOpenPerInbox: intSetting('COUNTERSIGN_RECEIVER_MAX_OPEN_PER_INBOX', env.COUNTERSIGN_RECEIVER_MAX_OPEN_PER_INBOX, 64, 1, 4096),
    requestTimeoutMs: intSetting(
      'COUNTERSIGN_RECEIVER_REQUEST_TIMEOUT_MS',
      env.COUNTERSIGN_RECEIVER_REQUEST_TIMEOUT_MS,
      30_000,
      1000,
      600_000,
    ),
  };
}

/**
 * Reads `--port N`, `--receiver-port N`, `--data-dir DIR`, `--demo PACK` (and `--flag=value`), falling back to the
 * environment. A demo without a data directory gets a fresh one in the temporary folder, so it always starts from the pack.
 */
export function loadConfig(argv: string[], env: Env = process.env, defaults: Partial<BackendConfig> = {}): BackendConfig {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!['port', 'receiver-port', 'data-dir', 'demo'].includes(name))
      throw new ConfigError(`unknown flag --${name} (known: --port, --receiver-port, --data-dir, --demo)`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new ConfigError(`--${name} needs a value`);
    flags.set(name, value);
  }
  const rate = env.COUNTERSIGN_RATE_LIMIT;
  const demo = flags.get('demo');
  return {
    host: '127.0.0.1',
    port: intSetting('--port', flags.get('port') ?? env.COUNTERSIGN_PORT, defaults.port ?? 4010, 0, 65535),
    receiverPort: intSetting(
      '--receiver-port',
      flags.get('receiver-port') ?? env.COUNTERSIGN_RECEIVER_PORT,
      defaults.receiverPort ?? 4011,
      0,
      65535,
    ),
    dataDir: resolve(flags.get('data-dir') ?? env.COUNTERSIGN_DATA_DIR ?? (demo ? demoDataDir(demo) : (defaults.dataDir ?? '.data'))),
    ...(demo ? { demo } : {}),
    adminKey: env.COUNTERSIGN_ADMIN_KEY || undefined,
    retrySchedule: parseRetrySchedule(env.COUNTERSIGN_RETRY_SCHEDULE),
    deliveryTimeoutMs: intSetting('COUNTERSIGN_DELIVERY_TIMEOUT_MS', env.COUNTERSIGN_DELIVERY_TIMEOUT_MS, 15000, 1, 600000),
    rateLimit: rate ? intSetting('COUNTERSIGN_RATE_LIMIT', rate, 0, 1, 1_000_000) : undefined,
    historyCap: intSetting('COUNTERSIGN_HISTORY_CAP', env.COUNTERSIGN_HISTORY_CAP, 200_000, 100, 10_000_000),
    deliveryConcurrency: intSetting('COUNTERSIGN_DELIVERY_CONCURRENCY', env.COUNTERSIGN_DELIVERY_CONCURRENCY, 64, 1, 1024),
    deliveryConcurrencyPerSubscription: intSetting(
      'COUNTERSIGN_DELIVERY_CONCURRENCY_PER_SUBSCRIPTION',
      env.COUNTERSIGN_DELIVERY_CONCURRENCY_PER_SUBSCRIPTION,
      16,
      1,
      1024,
    ),
    allowPrivateTargets: boolSetting('COUNTERSIGN_ALLOW_PRIVATE_TARGETS', env.COUNTERSIGN_ALLOW_PRIVATE_TARGETS),
    disableAfterFailingSeconds: intSetting(
      'COUNTERSIGN_DISABLE_AFTER_FAILING_SECONDS',
      env.COUNTERSIGN_DISABLE_AFTER_FAILING_SECONDS,
      5 * 86400,
      0,
      365 * 86400,
    ),
    rotationOverlapSeconds: intSetting(
      'COUNTERSIGN_SECRET_ROTATION_OVERLAP_SECONDS',
      env.COUNTERSIGN_SECRET_ROTATION_OVERLAP_SECONDS,
      86400,
      0,
      30 * 86400,
    ),
    ngrokAuthtoken: env.NGROK_AUTHTOKEN || undefined,
    allowedHosts: parseAllowedHosts(env.COUNTERSIGN_ALLOWED_HOSTS),
    remoteTimeoutMs: intSetting('COUNTERSIGN_REMOTE_TIMEOUT_MS', env.COUNTERSIGN_REMOTE_TIMEOUT_MS, 15000, 100, 600000),
    consoleToken: defaults.consoleToken,
    receiver: receiverSettings(env),
  };
}

/** A new folder name in the temporary folder for a demo run (created by the store). */
function demoDataDir(demo: string): string {
  const name =
    basename(demo)
      .replace(/\.json$/, '')
      .replace(/[^a-z0-9-]/gi, '') || 'pack';
  return join(tmpdir(), `countersign-demo-${name}-${randomBytes(4).toString('hex')}`);
}

/** The domain's settings from the configuration (endpoint health, secret rotation). */
export function domainSettings(config: BackendConfig): { disableAfterFailingSeconds: number; rotationOverlapSeconds: number } {
  return { disableAfterFailingSeconds: config.disableAfterFailingSeconds, rotationOverlapSeconds: config.rotationOverlapSeconds };
}
