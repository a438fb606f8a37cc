import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Config } from '../config';
import { assertSafeKey } from './safe-key';
import type { AssetStorage } from './storage';

/**
 * Any S3-compatible bucket (AWS, MinIO, R2, …) through @aws-sdk/client-s3; uploads stream from the local
 * file. The SDK (about 20 MB resident) loads on the first use of the store, not at start.
 */
export function createS3Storage(config: S3Config): AssetStorage {
  const newClient = ({ S3Client }: typeof S3Sdk) =>
    new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Many S3-compatible stores do not understand the SDK's newer default checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  let loading: Promise<{ sdk: typeof S3Sdk; client: S3Sdk.S3Client }> | undefined;
  const s3 = () =>
    (loading ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, client: newClient(sdk) })));
  const Bucket = config.bucket;

  return {
    kind: 's3',
    async putFile(key, localPath, meta) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(
        new sdk.PutObjectCommand({
          Bucket,
          Key: key,
          Body: fs.createReadStream(localPath),
          ContentLength: meta.size,
          ContentType: meta.contentType,
        }),
      );
    },
    async putBuffer(key, body, contentType) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async get(key) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        return {
          body: answer.Body as Readable,
          size: answer.ContentLength ?? 0,
          contentType: answer.ContentType,
        };
      } catch (err) {
        if (
          err instanceof sdk.NoSuchKey ||
          (err instanceof sdk.S3ServiceException && err.$metadata.httpStatusCode === 404)
        ) {
          return null;
        }
        throw err;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      assertSafeKey(prefix.replace(/\/+$/, ''));
      const { sdk, client } = await s3();
      let token: string | undefined;
      do {
        const page = await client.send(
          new sdk.ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0)
          await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
