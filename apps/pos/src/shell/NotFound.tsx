/** The page for an address the till has no screen for: says so and keeps the navigation above it. */
export function NotFound() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Not found</h1>
      <p className="notice info">This screen does not exist. Use the menu above.</p>
    </section>
  );
}
