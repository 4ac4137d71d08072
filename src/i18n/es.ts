import type { Translation } from "./messages";

export const es: Translation = {};
