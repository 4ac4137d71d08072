import type { Translation } from "./messages";

export const ptBR: Translation = {};
