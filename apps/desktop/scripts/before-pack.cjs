// electron-builder beforePack hook: rebuild the native modules the bundled server process (dist/server.cjs) loads
// (better-sqlite3, argon2, and the hardware ones once present) for Electron's ABI and the
// target architecture. electron-builder's own npmRebuild is off so this is the only rebuild.
const path = require('node:path');

const NATIVE = ['better-sqlite3', 'argon2', 'usb', '@serialport/bindings-cpp'];

/** @param {{ electronPlatformName: string, arch: number, packager: { config: { electronVersion?: string }, info: { framework: { version: string } } } }} context */
exports.default = async function beforePack(context) {
  const { rebuild } = await import('@electron/rebuild');
  const { Arch } = require('electron-builder');
  const electronVersion =
    context.packager.config.electronVersion ??
    context.packager.info.framework.version ??
    require('electron/package.json').version;
  const root = path.resolve(__dirname, '../../..');
  const app = path.resolve(__dirname, '..');
  const onlyModules = NATIVE.filter((name) => {
    try {
      require.resolve(`${name}/package.json`, { paths: [root] });
      return true;
    } catch {
      return false;
    }
  });
  console.log(
    `  • rebuilding ${onlyModules.join(', ')} for Electron ${electronVersion} (${Arch[context.arch]})`,
  );
  // The app's package.json lists the native modules; npm workspaces hoist them to the root.
  await rebuild({
    buildPath: app,
    projectRootPath: root,
    electronVersion,
    arch: Arch[context.arch],
    onlyModules,
    force: true,
    mode: 'sequential',
  });
};
