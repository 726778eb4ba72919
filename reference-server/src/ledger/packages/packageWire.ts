/** Wire shapes of the package, vetting and preferred-package operations (Canton 3.5 JSON API). */

export interface PackageReference {
  packageId: string;
  packageName: string;
  packageVersion: string;
}

export interface VettedPackage {
  packageId: string;
  packageName?: string;
  packageVersion?: string;
  validFromInclusive?: string;
  validUntilExclusive?: string;
}

export interface VettedPackages {
  packages: VettedPackage[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}

export interface ListVettedPackagesRequest {
  packageMetadataFilter?: { packageIds?: string[]; packageNamePrefixes?: string[] };
  topologyStateFilter?: { participantIds?: string[]; synchronizerIds?: string[] };
  pageToken?: string;
  pageSize?: number;
}

export interface ListVettedPackagesResponse {
  vettedPackages: VettedPackages[];
  nextPageToken: string;
}

export interface VettedPackagesRef {
  packageId?: string;
  packageName?: string;
  packageVersion?: string;
}

export type VettingOperation =
  | { Empty: Record<string, never> }
  | { Vet: { value: { packages: VettedPackagesRef[]; newValidFromInclusive?: string; newValidUntilExclusive?: string } } }
  | { Unvet: { value: { packages: VettedPackagesRef[] } } };

export interface UpdateVettedPackagesRequest {
  changes: { operation?: VettingOperation }[];
  dryRun?: boolean;
  synchronizerId?: string;
  expectedTopologySerial?: { serial?: { Empty: Record<string, never> } | { NoPrior: Record<string, never> } | { Prior: { value: number } } };
  updateVettedPackagesForceFlags?: string[];
}

export interface UpdateVettedPackagesResponse {
  pastVettedPackages?: VettedPackages;
  newVettedPackages: VettedPackages;
}

export interface GetPreferredPackagesRequest {
  packageVettingRequirements: { parties: string[]; packageName: string }[];
  synchronizerId?: string;
  vettingValidAt?: string;
}

export interface GetPreferredPackagesResponse {
  packageReferences: PackageReference[];
  synchronizerId: string;
}

export interface GetPreferredPackageVersionResponse {
  packagePreference?: { packageReference: PackageReference; synchronizerId: string };
}

export type PackageStatus = 'PACKAGE_STATUS_UNSPECIFIED' | 'PACKAGE_STATUS_REGISTERED';
