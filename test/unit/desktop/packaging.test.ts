// The packaging configuration, checked by electron-builder's own loader and schema
// validator (the real ones; packaging itself needs Electron's download and cannot run
// here). The fuses are what Electron's security checklist names.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface BuilderConfig {
  appId?: string;
  asar?: boolean;
  electronFuses?: Record<string, boolean>;
  protocols?: { schemes: string[] }[];
  linux?: { target?: string[] };
  /** Normalised by the loader to [{ filter: [...] }]. */
  files?: { filter?: string[] }[];
}

async function loadConfig(): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
  const { DebugLogger } = require('builder-util');
  const config = await getConfig(ROOT, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

describe('electron-builder.yml', () => {
  it("is valid for electron-builder and flips the checklist's fuses", async () => {
    const config = await loadConfig();
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('builds an AppImage and a deb that handle countersign:// links', async () => {
    const config = await loadConfig();
    expect(config.appId).toBe('dev.countersign.desktop');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.protocols?.flatMap((p) => p.schemes)).toContain('countersign');
    expect(config.files?.flatMap((f) => f.filter ?? [])).toContain('out/**');
  });
});
