// A release's uploaded source files (artifact bundles and legacy release files): URL, type, size, debug id, dist.
import { getTranslations } from "next-intl/server";
import type { ArtifactListing } from "@/storage/upload-ports";
import { TableHead } from "@/web/components/table-head";
import { formatBytes } from "@/web/format";

export async function ReleaseArtifacts({ files, locale }: { files: ArtifactListing[]; locale: string }) {
  const t = await getTranslations("releases");
  return (
    <section className="card">
      <h2>{t("artifacts")}</h2>
      {files.length === 0 ? (
        <p className="muted">{t("noArtifacts")}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="release-artifacts">
            <caption className="visually-hidden">{t("artifacts")}</caption>
            <TableHead columns={[t("artifactName"), t("artifactType"), t("artifactSize"), t("debugId"), t("dist")]} />
            <tbody>
              {files.map((f) => (
                <tr key={`${f.fileId}:${f.dist ?? ""}`}>
                  <td className="wrap">
                    <code>{f.url}</code>
                  </td>
                  <td>{f.type ? t(`artifactTypes.${f.type}`) : t("releaseFile")}</td>
                  <td>{formatBytes(locale, f.size)}</td>
                  <td>{f.debugId ? <code>{f.debugId}</code> : "—"}</td>
                  <td>{f.dist ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
