// An issue with its latest event.
import { IssueDetail } from "@/web/components/issue/issue-detail";

export const dynamic = "force-dynamic";

export default function IssuePage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string; issueId: string };
  searchParams: { environment?: string | string[] };
}) {
  return (
    <IssueDetail
      locale={params.locale}
      org={params.org}
      issueId={params.issueId}
      eventRef="latest"
      environment={typeof searchParams.environment === "string" ? searchParams.environment : undefined}
    />
  );
}
