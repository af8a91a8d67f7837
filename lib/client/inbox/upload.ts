import { ApiClientError, getCsrfToken, type ApiEnvelope } from "../api";

/**
 * A multipart POST through XMLHttpRequest, the one browser API that reports upload progress. Answers like
 * api.ts: the envelope's data, or an ApiClientError.
 */
export function postMultipart<T>(
  url: string,
  form: FormData,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    const csrf = getCsrfToken();
    if (csrf) xhr.setRequestHeader("X-CSRF-Token", csrf);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () =>
      reject(
        new ApiClientError(0, "NetworkError", "Can't reach the server. Check your connection and try again."),
      );
    xhr.onload = () => {
      let body: ApiEnvelope<T> | undefined;
      try {
        body = JSON.parse(xhr.responseText) as ApiEnvelope<T>;
      } catch {
        body = undefined;
      }
      const meta = body?.meta;
      if (!body || !meta) {
        const message =
          xhr.status === 413
            ? "The file is too large (10 MB at most)."
            : "Something went wrong. Please try again.";
        reject(new ApiClientError(xhr.status, "BadResponse", message));
        return;
      }
      const status = typeof meta.status === "number" ? meta.status : xhr.status;
      if (status >= 400 || meta.error) {
        reject(
          new ApiClientError(
            status,
            meta.error ?? "BadResponse",
            meta.error_message || "Something went wrong. Please try again.",
          ),
        );
        return;
      }
      resolve(body.data);
    };
    xhr.send(form);
  });
}
