/* Raw probe: how a blocking launch waits. Copy kernel, median of R runs. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
static const char*src="kernel void copy(global const float*a, global float*b, uint n){uint i=get_global_id(0); if(i<n) b[i]=a[i];}";
int main(int argc,char**argv){
 int R=argc>1?atoi(argv[1]):2001;
 cl_platform_id p[8];cl_uint np;clGetPlatformIDs(8,p,&np);
 cl_device_id d=0;for(cl_uint i=0;i<np&&!d;i++){char nm[256];clGetPlatformInfo(p[i],CL_PLATFORM_NAME,256,nm,0);if(strstr(nm,"NVIDIA"))clGetDeviceIDs(p[i],CL_DEVICE_TYPE_GPU,1,&d,0);}
 cl_int e;cl_context c=clCreateContext(0,1,&d,0,0,&e);cl_command_queue q=clCreateCommandQueue(c,d,0,&e);
 cl_program pr=clCreateProgramWithSource(c,1,&src,0,&e);clBuildProgram(pr,1,&d,"",0,0);cl_kernel k=clCreateKernel(pr,"copy",&e);
 size_t N=1<<22;cl_mem a=clCreateBuffer(c,0,N*4,0,&e),b=clCreateBuffer(c,0,N*4,0,&e);
 clSetKernelArg(k,0,sizeof a,&a);clSetKernelArg(k,1,sizeof b,&b);
 const char*names[]={"enqueue+clFinish","event+flush+clWaitForEvents","event+flush+spin(status)","event+flush+spin+yield","flush+spin then clFinish"};
 size_t sizes[]={1024,1<<16,1<<20,1<<22};
 double*t=malloc(sizeof(double)*R);
 for(int si=0;si<4;si++){size_t n=sizes[si];cl_uint nn=n;clSetKernelArg(k,2,4,&nn);size_t g=(n+255)/256*256,l=256;
  double med[5][3];
  for(int round=0;round<3;round++) for(int f=0;f<5;f++){
   for(int r=0;r<R;r++){cl_event ev=0;double t0=now();
    if(f==0){clEnqueueNDRangeKernel(q,k,1,0,&g,&l,0,0,0);clFinish(q);}
    else{clEnqueueNDRangeKernel(q,k,1,0,&g,&l,0,0,&ev);clFlush(q);
     if(f==1)clWaitForEvents(1,&ev);
     else{cl_int st=1;do{clGetEventInfo(ev,CL_EVENT_COMMAND_EXECUTION_STATUS,sizeof st,&st,0);if(f==3)sched_yield();}while(st>0);
      if(f==4)clFinish(q);}
     clReleaseEvent(ev);}
    t[r]=now()-t0;}
   qsort(t,R,sizeof(double),cmp);med[f][round]=t[R/2];}
  for(int f=0;f<5;f++)printf("n=%-8zu %-32s %.2f %.2f %.2f us\n",n,names[f],med[f][0],med[f][1],med[f][2]);
 }
 return 0;}
