// The environment filter every page that lists or counts events shows (`?environment=`, one value, absent = all):
// the organization's or project's environments in a GET form that keeps the page's other search params.
import { getTranslations } from "next-intl/server";
import { FilterSelect } from "./filter-select";

type SearchParams = Record<string, string | string[] | undefined>;

export async function EnvironmentFilter({ environments, params }: { environments: string[]; params: SearchParams }) {
  const t = await getTranslations("environment");
  return (
    <FilterSelect
      name="environment"
      label={t("label")}
      allLabel={t("all")}
      applyLabel={t("apply")}
      options={environments.map((e) => ({ value: e, label: e }))}
      params={params}
      testId="environment-filter"
    />
  );
}

/** The one environment a page's search params ask for, or null for all. */
export function environmentParam(params: SearchParams): string | null {
  const v = params.environment;
  return typeof v === "string" && v !== "" ? v : null;
}
