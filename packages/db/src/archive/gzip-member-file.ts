import { open } from "node:fs/promises";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Where one record's gzip member sits in its archive file. */
export interface MemberLocation {
  offset: number;
  bytes: number;
}

/**
 * Appends each text as its own gzip member to `filePath` (created if missing) and syncs the file.
 * Concatenated gzip members are one valid gzip stream, so `gunzip -c file` or `zcat` prints every
 * record in order, while one record can be read back alone from its offset. The caller must hold
 * the file exclusively while appending (the archiver takes a database lock per run).
 */
export async function appendGzipMembers(
  filePath: string,
  texts: readonly string[],
): Promise<MemberLocation[]> {
  const members = await Promise.all(texts.map((text) => gzipAsync(Buffer.from(text, "utf8"))));
  const handle = await open(filePath, "a");
  try {
    let offset = (await handle.stat()).size;
    const locations: MemberLocation[] = [];
    for (const member of members) {
      locations.push({ offset, bytes: member.byteLength });
      offset += member.byteLength;
    }
    if (members.length > 0) await handle.write(Buffer.concat(members));
    await handle.sync();
    return locations;
  } finally {
    await handle.close();
  }
}

/** Reads and inflates the one gzip member at `location` of `filePath`. */
export async function readGzipMember(filePath: string, location: MemberLocation): Promise<string> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(location.bytes);
    const { bytesRead } = await handle.read(buffer, 0, location.bytes, location.offset);
    if (bytesRead !== location.bytes) {
      throw new Error(
        `${filePath}: expected ${location.bytes} bytes at ${location.offset}, read ${bytesRead}`,
      );
    }
    return (await gunzipAsync(buffer)).toString("utf8");
  } finally {
    await handle.close();
  }
}
