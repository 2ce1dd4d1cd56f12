/** A till screen whose feature is still being built; keeps the navigation and shortcuts honest. */
export function ComingSoon({ title, detail }: { title: string; detail: string }) {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">{title}</h1>
      <p className="notice info">{detail}</p>
    </section>
  );
}
