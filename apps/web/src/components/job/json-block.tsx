/** A titled, pretty-printed JSON value. */
export function JsonBlock({ title, value }: { title: string; value: unknown }) {
  return (
    <section>
      <h2>{title}</h2>
      <pre className="json">{JSON.stringify(value, null, 2)}</pre>
    </section>
  );
}
