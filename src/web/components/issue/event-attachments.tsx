// The event page's attachments (issue 19): each with its type and size, a download link for those whose role may
// download the project's attachments (the project's attachments role, checked by the core and again by the download
// route), raster images shown in place (served inline by the API with nosniff and a sandboxing policy; SVG and other
// documents only as downloads), and a view hierarchy drawn as a tree.
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { eventAttachmentsView } from "@/core/attachments";
import type { ViewNode } from "@/core/view-hierarchy";
import { ATTACHMENT_LIMITS } from "@/config/limits";
import { isInlineImage } from "@/protocol/attachments";
import { getServices } from "@/runtime/services";
import { formatBytes } from "@/web/format";

function Tree({ nodes }: { nodes: ViewNode[] }) {
  return (
    <ul className="view-tree">
      {nodes.map((n, i) => (
        <li key={i}>
          {n.children.length > 0 ? (
            <details open>
              <summary>
                <NodeLabel node={n} />
              </summary>
              <Tree nodes={n.children} />
            </details>
          ) : (
            <NodeLabel node={n} />
          )}
        </li>
      ))}
    </ul>
  );
}

function NodeLabel({ node }: { node: ViewNode }) {
  return (
    <span data-testid="view-node">
      <code>{node.type}</code>
      {node.identifier ? <> #{node.identifier}</> : null}
      {node.frame ? <span className="muted"> {node.frame}</span> : null}
      {node.visible === false ? <span className="muted"> (hidden)</span> : null}
    </span>
  );
}

export async function EventAttachments({
  core,
  locale,
  org,
  projectSlug,
  eventId,
}: {
  core: CoreContext;
  locale: string;
  org: string;
  projectSlug: string;
  eventId: string;
}) {
  const view = await eventAttachmentsView(core, org, projectSlug, eventId);
  if (view.attachments.length === 0) return null;
  const t = await getTranslations("attachments");
  const { basePath } = getServices();
  const url = (id: number, inline = false) =>
    `${basePath}/api/0/projects/${encodeURIComponent(org)}/${encodeURIComponent(projectSlug)}/events/${eventId}/attachments/${id}/?download=1${inline ? "&inline=1" : ""}`;
  const images = view.canDownload ? view.attachments.filter((a) => isInlineImage(a.contentType) && a.size <= ATTACHMENT_LIMITS.maxInlineImageBytes) : [];
  return (
    <section className="card" aria-labelledby="attachments-title" data-testid="event-attachments">
      <h2 id="attachments-title">{t("title", { count: view.attachments.length })}</h2>
      {view.canDownload ? null : (
        <p className="muted" data-testid="attachments-restricted">
          {t("restricted", { role: view.project.attachmentsRole ?? "member" })}
        </p>
      )}
      <table className="table">
        <thead>
          <tr>
            <th scope="col">{t("name")}</th>
            <th scope="col">{t("type")}</th>
            <th scope="col">{t("size")}</th>
            {view.canDownload ? (
              <th scope="col">
                <span className="visually-hidden">{t("download")}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {view.attachments.map((a) => (
            <tr key={a.id} data-testid="attachment-row">
              <td>{a.name}</td>
              <td>
                <code>{a.contentType}</code> <span className="muted">{a.attachmentType}</span>
              </td>
              <td>{formatBytes(locale, a.size)}</td>
              {view.canDownload ? (
                <td>
                  <a href={url(a.id)} download={a.name} data-testid="attachment-download">
                    {t("downloadNamed", { name: a.name })}
                  </a>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {images.map((a) => (
        <figure key={a.id} className="attachment-image" data-testid="attachment-image">
          {/* eslint-disable-next-line @next/next/no-img-element -- an attachment served by the API, not a static asset */}
          <img src={url(a.id, true)} alt={t("imageAlt", { name: a.name })} loading="lazy" />
          <figcaption className="muted">{a.name}</figcaption>
        </figure>
      ))}
      {view.viewHierarchy ? (
        <div data-testid="view-hierarchy">
          <h3>{t("viewHierarchy")}</h3>
          {view.viewHierarchy.tree.renderingSystem ? <p className="muted">{view.viewHierarchy.tree.renderingSystem}</p> : null}
          <Tree nodes={view.viewHierarchy.tree.windows} />
          {view.viewHierarchy.tree.omitted > 0 ? <p className="muted">{t("omitted", { count: view.viewHierarchy.tree.omitted })}</p> : null}
        </div>
      ) : null}
    </section>
  );
}
