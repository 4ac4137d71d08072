/**
 * A switch drawn as Obsidian draws `Setting.addToggle`: `div.checkbox-container` (with
 * `is-enabled` when on) around a checkbox, so Obsidian's own styles give it the look of every
 * other toggle in Settings. The checkbox keeps the name and the keyboard (Space); a click on the
 * container around it (where a theme draws the switch) flips it too.
 */
export function ObsidianToggle({ checked, disabled = false, label, id, onChange }: { checked: boolean; disabled?: boolean; label: string; id?: string; onChange: (on: boolean) => void }) {
  return (
    <div
      className={`checkbox-container${checked ? " is-enabled" : ""}${disabled ? " is-disabled" : ""}`}
      onClick={(event) => {
        // Clicks on the checkbox itself arrive as its change.
        if (event.target === event.currentTarget && !disabled) onChange(!checked);
      }}
    >
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-label={label}
        onChange={(event) => {
          // Disabled controls can still receive synthetic events: a disabled switch never changes.
          if (!disabled) onChange(event.currentTarget.checked);
        }}
      />
    </div>
  );
}
