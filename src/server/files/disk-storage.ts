import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { assertSafeKey } from './safe-key';
import type { AssetStorage } from './storage';

/** Files under `root` (DATA_DIR/assets): `{root}/{workspace}/{storageName}`. Writes are atomic renames. */
export function createDiskStorage(root: string): AssetStorage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  const tempBeside = (file: string) => `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;

  return {
    kind: 'disk',
    async putFile(key, localPath) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const temp = tempBeside(file);
      try {
        await fs.promises.rename(localPath, temp).catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EXDEV') throw err;
          await fs.promises.copyFile(localPath, temp);
        });
        await fs.promises.rename(temp, file);
      } finally {
        await fs.promises.rm(temp, { force: true });
      }
    },
    async putBuffer(key, body) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const temp = tempBeside(file);
      try {
        await fs.promises.writeFile(temp, body);
        await fs.promises.rename(temp, file);
      } finally {
        await fs.promises.rm(temp, { force: true });
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const handle = await fs.promises.open(file, 'r');
        const { size } = await handle.stat();
        return { body: handle.createReadStream(), size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      await fs.promises.rm(fileOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
    },
  };
}
