import type { z } from "zod";
import { ENGLISH } from "../../i18n/languages";
import { currentLanguage, t } from "../../i18n/t";
import { settingsRuleOf, type SettingsRule } from "../../settings/settingsRules";

/**
 * Why a value in a settings field cannot be used, in the interface's language: in English zod's
 * own message (as the settings always showed it), in another language the sentence for the
 * issue's code and its bounds, or for a rule of our own (two models of one name, a secret's id)
 * the rule's sentence. A custom issue the view does not know keeps its English message.
 */
export function zodIssueText(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return t("settings.valueUnusable");
  if (currentLanguage() === ENGLISH) return issue.message;
  const rule = settingsRuleOf(issue);
  if (rule) return settingsRuleText(rule);
  if (issue.code === "custom") return issue.message;
  switch (issue.code) {
    case "too_small":
    case "too_big":
      return boundText(issue);
    case "invalid_type":
      if (issue.expected === "number") return t("zodIssue.number");
      if (issue.expected === "int") return t("zodIssue.integer");
      if (issue.expected === "string") return t("zodIssue.text");
      return t("settings.valueUnusable");
    case "invalid_format":
      return issue.format === "url" ? t("zodIssue.url") : t("zodIssue.format");
    case "invalid_value":
      return t("zodIssue.oneOf", { values: issue.values.map(String).join(", ") });
    case "not_multiple_of":
      return t("zodIssue.multipleOf", { divisor: Number(issue.divisor) });
    default:
      return t("settings.valueUnusable");
  }
}

/** A rule of the settings schema's own, in the interface's language. */
function settingsRuleText(rule: SettingsRule): string {
  switch (rule.rule) {
    case "duplicate-model":
    case "duplicate-server":
      return t(`settingsRule.${rule.rule}`, { name: rule.name });
    default:
      return t(`settingsRule.${rule.rule}`);
  }
}

function boundText(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === "string") return t(small ? "zodIssue.shortest" : "zodIssue.longest", { count: bound });
  if (issue.origin === "array" || issue.origin === "set") return t(small ? "zodIssue.fewest" : "zodIssue.most", { count: bound });
  if (small) return t(issue.inclusive ? "zodIssue.atLeast" : "zodIssue.moreThan", { bound });
  return t(issue.inclusive ? "zodIssue.atMost" : "zodIssue.lessThan", { bound });
}
