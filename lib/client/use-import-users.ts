"use client";

import { useMutation } from "@tanstack/react-query";
import { api } from "./api";
import type { Id, ImportJob } from "./leads-types";

/** Uploads a CSV to POST /users/import; the answer is the job to follow with useImportJob. */
export function useImportUsers(appId: Id) {
  return useMutation({
    mutationFn: (input: { file: File; mergeField: "$email" | "$user_id"; tags: string[] }) => {
      const form = new FormData();
      form.set("file", input.file);
      return api.post<ImportJob>("/api/users/import", form, {
        query: {
          app: String(appId),
          merge_field: input.mergeField,
          tags: input.tags.length ? input.tags.join(",") : undefined,
        },
      });
    },
  });
}
