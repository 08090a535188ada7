#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <chrono>
__global__ void copy(const float*a,float*b,unsigned n){unsigned i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n)b[i]=a[i];}
int main(int argc,char**argv){int R=argc>1?atoi(argv[1]):2001; int flags=argc>2?atoi(argv[2]):0;
 if(flags==1)cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync); if(flags==2)cudaSetDeviceFlags(cudaDeviceScheduleSpin); if(flags==3)cudaSetDeviceFlags(cudaDeviceScheduleYield);
 float*a,*b;cudaMalloc(&a,4<<22);cudaMalloc(&b,4<<22);
 size_t sizes[]={1024,1<<16,1<<20,1<<22};std::vector<double>t(R);
 for(size_t n:sizes){double m[3];for(int round=0;round<3;round++){for(int r=0;r<R;r++){auto t0=std::chrono::steady_clock::now();copy<<<(n+255)/256,256>>>(a,b,n);cudaStreamSynchronize(0);t[r]=std::chrono::duration<double,std::micro>(std::chrono::steady_clock::now()-t0).count();}
  std::sort(t.begin(),t.end());m[round]=t[R/2];}
  printf("cuda flags=%d n=%-8zu launch+sync %.2f %.2f %.2f us\n",flags,n,m[0],m[1],m[2]);}
 return 0;}
