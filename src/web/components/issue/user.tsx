// Who the event happened to (the event's user interface).
import { getTranslations } from "next-intl/server";
import type { EventUser } from "@/core/event-data";
import { KeyValues } from "./key-values";

export async function UserView({ user }: { user: EventUser }) {
  const t = await getTranslations("issueDetail.user");
  return (
    <section className="card" aria-labelledby="user-title" data-testid="user">
      <h2 id="user-title">{t("title")}</h2>
      <KeyValues
        values={[
          [t("id"), user.id],
          [t("email"), user.email],
          [t("username"), user.username],
          [t("ip"), user.ip_address],
          [t("name"), user.name],
        ]}
      />
    </section>
  );
}
