/** The "Find" box above a table: words every row shown must have (see `matchesQuery`). */
export function FindField({
  value,
  onInput,
  placeholder,
  testid,
}: {
  value: string;
  onInput: (value: string) => void;
  placeholder: string;
  testid: string;
}) {
  return (
    <label class="inline-field">
      <span>Find</span>
      <input type="search" placeholder={placeholder} value={value} onInput={(e) => onInput(e.currentTarget.value)} data-testid={testid} />
    </label>
  );
}
