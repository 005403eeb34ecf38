/** What a plain browser sees: the page needs the desktop app's backend to do anything. */
export function NoBackend() {
  return (
    <main class="no-backend" data-testid="no-backend">
      <h1>wasmeter</h1>
      <p>This page is the front end of the wasmeter desktop app and needs its backend, which only exists inside the app window.</p>
      <p>
        Start it with <code>wasmeter desktop</code> (or <code>scripts/desktop</code>), or use the terminal UI with <code>wasmeter tui</code>
        .
      </p>
    </main>
  );
}
