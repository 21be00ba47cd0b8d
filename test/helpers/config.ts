// A backend config for tests: port 0 everywhere (a free port is picked), the given data
// directory, everything else as the defaults, then the test's overrides.
import { loadConfig, type BackendConfig } from '../../src-main/backend/config.js';

export function testConfig(dataDir: string, overrides: Partial<BackendConfig> = {}): BackendConfig {
  return { ...loadConfig([], {}, { port: 0, receiverPort: 0, dataDir }), ...overrides };
}
