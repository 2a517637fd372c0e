// Receiving an upload: the multipart body streams straight into the upload's folder on disk,
// checked as it arrives. The file's name and type are checked from its part headers before any
// of its bytes are read, and its size as they come in: the size limit refuses a larger file as
// soon as it passes the limit, not after it has been received. Only the small `user` field is
// held in memory. On any failure the caller removes the folder.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { ApiError } from '../../http/errors';
import { boundaryOf, readMultipart, type PartSink } from './multipart';
import { safeFileName, uploadPath } from './disk';

/** Room for the multipart boundaries, headers and the `user` field around the file itself. */
export const ENVELOPE_BYTES = 64 * 1024;
const MAX_FIELD_BYTES = 16 * 1024;

export type ReceivedUpload = {
  /** The name as sent, and as stored (made safe). */
  originalName: string;
  name: string;
  /** The part's content type as sent. */
  contentType: string;
  size: number;
  path: string;
  /** The `user` field (server-side calls name their user there). */
  user?: string;
};

export type ReceiveOptions = {
  dir: string;
  id: string;
  /** The most bytes the file may have. */
  sizeLimit: number;
  tooLarge: () => ApiError;
  /** Checks name and type before the bytes are read; throws to refuse. */
  checkType: (name: string, contentType: string) => void;
};

export async function receiveUpload(
  body: AsyncIterable<Uint8Array>,
  contentType: string | undefined,
  options: ReceiveOptions,
): Promise<ReceivedUpload> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw ApiError.input('an upload is multipart/form-data with the file in the field "file"');
  let file: ReceivedUpload | undefined;
  let out: WriteStream | undefined;
  const fields = new Map<string, string>();
  try {
    await readMultipart(body, boundary, {
      maxBytes: options.sizeLimit + ENVELOPE_BYTES,
      tooLarge: options.tooLarge,
      onPart: async (part): Promise<PartSink> => {
        if (part.name === 'file' && part.filename !== undefined && !file) {
          options.checkType(part.filename, part.contentType);
          const name = safeFileName(part.filename);
          const path = uploadPath(options.dir, options.id, name);
          await mkdir(uploadPath(options.dir, options.id, ''), { recursive: true });
          const received: ReceivedUpload = { originalName: part.filename, name, contentType: part.contentType, size: 0, path };
          file = received;
          const stream = createWriteStream(path, { flags: 'wx' });
          out = stream;
          // A disk error fails the upload at the next write; a write still in flight when the
          // upload is abandoned reports its error here and nowhere else.
          let failure: Error | undefined;
          stream.on('error', (error) => (failure ??= error));
          return {
            write: async (chunk) => {
              if (failure) throw failure;
              received.size += chunk.length;
              if (received.size > options.sizeLimit) throw options.tooLarge();
              if (!stream.write(chunk)) await once(stream, 'drain');
            },
            end: async () => {
              stream.end();
              await once(stream, 'close');
              if (failure) throw failure;
            },
          };
        }
        // Any other part is a small field (or ignored): kept as text up to a bound.
        const chunks: Buffer[] = [];
        let size = 0;
        return {
          write: (chunk) => {
            size += chunk.length;
            if (size > MAX_FIELD_BYTES) throw ApiError.input(`the form field ${part.name} is too long`);
            chunks.push(Buffer.from(chunk));
          },
          end: () => {
            if (part.filename === undefined) fields.set(part.name, Buffer.concat(chunks).toString('utf8'));
          },
        };
      },
    });
  } catch (error) {
    out?.destroy();
    throw error;
  }
  if (!file) throw ApiError.input('file is a required field (a multipart file part)');
  const user = fields.get('user');
  return user !== undefined ? { ...(file as ReceivedUpload), user } : file;
}
