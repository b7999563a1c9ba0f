/** Raised inside a body stream that grew past its limit. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
}

/**
 * Passes a request body through chunk by chunk (nothing is held beyond the chunk in flight) and
 * errors the stream with `BodyTooLargeError` as soon as more than `maxBytes` went by.
 */
export function limitBody(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          controller.error(new BodyTooLargeError(`the request body is larger than ${maxBytes} bytes`));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}
