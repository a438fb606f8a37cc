import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SsoSettings, SsoTestResult, type SamlConnectionBody, type SsoConnectionBody } from '@shared/api/sso';
import { apiRequest } from '@web/lib/api-client';
import { ssoPath, ssoQueryKey } from './get-sso';

/** PUT …/sso: saved once discovery answers. Sets: the settings. */
export function useSaveSso(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConnectionBody) =>
      apiRequest(ssoPath(workspaceId), { method: 'PUT', body, schema: SsoSettings }),
    onSuccess: (settings) => client.setQueryData(ssoQueryKey(workspaceId), settings),
  });
}

/** PUT …/sso/saml: a SAML connection in place of the saved one. Sets: the settings. */
export function useSaveSamlSso(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SamlConnectionBody) =>
      apiRequest(`${ssoPath(workspaceId)}/saml`, { method: 'PUT', body, schema: SsoSettings }),
    onSuccess: (settings) => client.setQueryData(ssoQueryKey(workspaceId), settings),
  });
}

/** POST …/sso/test: reads the issuer's discovery document. Invalidates nothing. */
export function useTestSso(workspaceId: string) {
  return useMutation({
    mutationFn: (issuer: string) =>
      apiRequest(`${ssoPath(workspaceId)}/test`, { method: 'POST', body: { issuer }, schema: SsoTestResult }),
  });
}

/** DELETE …/sso. Invalidates: the settings. */
export function useDeleteSso(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(ssoPath(workspaceId), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ssoQueryKey(workspaceId) }),
  });
}
