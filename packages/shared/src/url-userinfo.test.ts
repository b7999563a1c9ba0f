import { describe, expect, it } from "vitest";
import { hasUrlUserinfo, redactUrlUserinfo } from "./url-userinfo";

describe("URL userinfo", () => {
  it("finds a user name or password before the host, and only there", () => {
    expect(hasUrlUserinfo("http://user:secret@gpu-3:8000")).toBe(true);
    expect(hasUrlUserinfo("https://token@gpu-3")).toBe(true);
    expect(hasUrlUserinfo("http://:pw@gpu-3/v1")).toBe(true);
    expect(hasUrlUserinfo("http://gpu-3:8000")).toBe(false);
    expect(hasUrlUserinfo("http://gpu-3:8000/models/a@b")).toBe(false);
    expect(hasUrlUserinfo("gpu-3:8000")).toBe(false);
  });

  it("hides every URL's credentials in a text and keeps the rest", () => {
    expect(redactUrlUserinfo('"vllm=http://u:s3cret@gpu-1:8000#m", http://gpu-2:1/a@b')).toBe(
      '"vllm=http://***@gpu-1:8000#m", http://gpu-2:1/a@b',
    );
    // In a JSON log line an "@" in a later string is not the URL's.
    const line = '{"url":"http://gpu-1:8000","owner":"a@b"}';
    expect(redactUrlUserinfo(line)).toBe(line);
  });
});
