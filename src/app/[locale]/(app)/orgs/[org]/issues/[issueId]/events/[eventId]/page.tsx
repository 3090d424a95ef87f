// An issue with one of its events: by id, or "oldest" or "latest".
import { IssueDetail } from "@/web/components/issue/issue-detail";

export const dynamic = "force-dynamic";

export default function IssueEventPage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string; issueId: string; eventId: string };
  searchParams: { environment?: string | string[] };
}) {
  return (
    <IssueDetail
      locale={params.locale}
      org={params.org}
      issueId={params.issueId}
      eventRef={params.eventId}
      environment={typeof searchParams.environment === "string" ? searchParams.environment : undefined}
    />
  );
}
