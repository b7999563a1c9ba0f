import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { runImageTool } from "./image-tools";
import {
  findSifRootPartition,
  isSifHeader,
  SIF_HEADER_BYTES,
  type SifRootPartition,
  sifDescriptorTable,
} from "./sif-header";

/** What an image reference names, found by looking at it (never by its file name). */
export type ImageSource =
  /** A root filesystem directory: used in place, not cached (its contents are the caller's). */
  | { kind: "rootfs-dir"; path: string }
  /** An OCI image layout directory (`oci-layout` + `index.json`); `tag` picks one of its images. */
  | { kind: "oci-layout"; path: string; tag: string }
  /** A tar of an OCI layout (`skopeo copy … oci-archive:`). */
  | { kind: "oci-archive"; path: string }
  /** A `docker save` tar (`manifest.json`). */
  | { kind: "docker-archive"; path: string }
  /** A Singularity/Apptainer image: its squashfs system partition. */
  | { kind: "sif"; path: string; partition: SifRootPartition };

const REF_NAME = "org.opencontainers.image.ref.name";

interface OciIndex {
  manifests?: Array<{ digest?: string; annotations?: Record<string, string> }>;
}

/** The manifest of an OCI index that `tag` names (or its only one); throws a readable sentence. */
function pickManifest(
  index: OciIndex,
  where: string,
  tag?: string,
): { digest: string; tag: string | undefined } {
  const manifests = index.manifests ?? [];
  const chosen =
    tag === undefined
      ? manifests.length === 1
        ? manifests[0]
        : undefined
      : manifests.find((manifest) => manifest.annotations?.[REF_NAME] === tag);
  if (!chosen?.digest) {
    const tags = manifests.map((manifest) => manifest.annotations?.[REF_NAME] ?? "(untagged)").join(", ");
    throw new Error(
      tag === undefined
        ? `${where} holds ${manifests.length} images (${tags}); name one as <path>:<tag>`
        : `${where} has no image tagged ${tag} (it has: ${tags || "none"})`,
    );
  }
  return { digest: chosen.digest, tag: chosen.annotations?.[REF_NAME] };
}

/** `path` or `path:tag` (a tag only after the last slash, and only when `path` alone exists). */
async function splitTag(reference: string): Promise<{ path: string; tag?: string }> {
  const colon = reference.lastIndexOf(":");
  if (colon > reference.lastIndexOf("/") && colon > 0) {
    const path = reference.slice(0, colon);
    const exists = await stat(reference).then(
      () => true,
      () => false,
    );
    if (!exists) return { path, tag: reference.slice(colon + 1) };
  }
  return { path: reference };
}

async function readHead(path: string, bytes: number, position = 0): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether the first 512 bytes are a tar header (ustar magic at 257). */
function isTarHeader(head: Buffer): boolean {
  return head.subarray(257, 262).toString("latin1") === "ustar";
}

async function tarMembers(path: string): Promise<Set<string>> {
  const listing = await runImageTool("tar", ["-tf", path]);
  return new Set(listing.split("\n").map((name) => name.replace(/^\.\//, "")));
}

/**
 * What `reference` (an absolute path, optionally `:tag` for an OCI layout) names. Throws a
 * sentence a user can act on when it is missing or of no known format.
 */
export async function resolveImageSource(reference: string): Promise<ImageSource> {
  const { path, tag } = await splitTag(reference);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new Error(`image ${reference} does not exist`);
  if (info.isDirectory()) {
    const layout = await readFile(join(path, "oci-layout"), "utf8").catch(() => undefined);
    if (layout === undefined) {
      if (tag !== undefined)
        throw new Error(`image ${reference}: ${path} is not an OCI layout, so it has no tags`);
      return { kind: "rootfs-dir", path };
    }
    const index = JSON.parse(await readFile(join(path, "index.json"), "utf8")) as OciIndex;
    const picked = pickManifest(index, `OCI layout ${path}`, tag);
    if (picked.tag === undefined)
      throw new Error(`OCI layout ${path}: its image has no tag (${REF_NAME}); umoci needs one`);
    return { kind: "oci-layout", path, tag: picked.tag };
  }
  const head = await readHead(path, 512);
  if (isSifHeader(head)) {
    const table = sifDescriptorTable(head.subarray(0, SIF_HEADER_BYTES));
    const descriptors = await readHead(path, table.length, table.offset);
    return { kind: "sif", path, partition: findSifRootPartition(descriptors) };
  }
  if (isTarHeader(head)) {
    const members = await tarMembers(path);
    if (members.has("oci-layout") && members.has("index.json")) return { kind: "oci-archive", path };
    if (members.has("manifest.json")) return { kind: "docker-archive", path };
    throw new Error(`image ${path} is a tar archive but neither an OCI archive nor a docker save archive`);
  }
  throw new Error(`image ${path} is neither a directory, an OCI or docker archive, nor a SIF file`);
}

async function sha256OfRange(path: string, start: number, length: number): Promise<string> {
  const hash = createHash("sha256");
  const stream = createReadStream(path, { start, end: start + length - 1 });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function tarMemberText(path: string, member: string): Promise<string> {
  return runImageTool("tar", ["-xOf", path, member]);
}

function digestHex(digest: string, where: string): string {
  const match = /^sha256:([0-9a-f]{64})$/.exec(digest);
  if (!match) throw new Error(`${where}: unsupported digest ${digest} (sha256 only)`);
  return match[1]!;
}

/**
 * The cache key of an image: its content, so two paths to one image share an entry and a
 * changed file gets a new one. OCI: the manifest digest; docker archive: the config digest
 * (the image id, which covers its layers); SIF: sha256 of the system partition.
 */
export async function imageContentKey(source: Exclude<ImageSource, { kind: "rootfs-dir" }>): Promise<string> {
  switch (source.kind) {
    case "oci-layout": {
      const index = JSON.parse(await readFile(join(source.path, "index.json"), "utf8")) as OciIndex;
      return `oci-${digestHex(pickManifest(index, source.path, source.tag).digest, source.path)}`;
    }
    case "oci-archive": {
      const index = JSON.parse(await tarMemberText(source.path, "index.json")) as OciIndex;
      return `oci-${digestHex(pickManifest(index, source.path).digest, source.path)}`;
    }
    case "docker-archive": {
      const manifest = JSON.parse(await tarMemberText(source.path, "manifest.json")) as Array<{
        Config?: string;
      }>;
      if (manifest.length !== 1 || !manifest[0]?.Config) {
        throw new Error(
          `docker archive ${source.path} holds ${manifest.length} images; only single-image archives are supported`,
        );
      }
      const hex = /([0-9a-f]{64})(\.json)?$/.exec(manifest[0].Config)?.[1];
      if (!hex) throw new Error(`docker archive ${source.path}: cannot read its config digest`);
      return `docker-${hex}`;
    }
    case "sif":
      return `sif-${await sha256OfRange(source.path, source.partition.offset, source.partition.size)}`;
  }
}
