import { setIcon, setTooltip } from "obsidian";
import { useLayoutEffect, useRef } from "react";

export interface IconButtonProps {
  /** A Lucide icon name, as Obsidian's `setIcon` takes it ("copy", "history", …). */
  icon: string;
  /** The accessible name and the tooltip: what a screen reader says and tests find. */
  label: string;
  onClick: () => void;
  className?: string;
  disabled?: boolean;
  /** For a button that shows or hides something (Chat history). */
  pressed?: boolean;
}

/**
 * A button drawn as an Obsidian icon (`clickable-icon`, the icon from `setIcon`), named by its
 * label and showing it as Obsidian's tooltip on hover. React leaves the button's children alone
 * (it renders none), so the icon Obsidian puts in stays.
 */
export function IconButton({ icon, label, onClick, className, disabled, pressed }: IconButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const element = button.current;
    if (!element) return;
    setIcon(element, icon);
    setTooltip(element, label);
  }, [icon, label]);
  return (
    <button
      ref={button}
      type="button"
      className={`clickable-icon vault-copilot-icon-button${className ? ` ${className}` : ""}${pressed ? " is-active" : ""}`}
      aria-label={label}
      {...(pressed !== undefined ? { "aria-pressed": pressed } : {})}
      disabled={disabled}
      onClick={onClick}
    />
  );
}
